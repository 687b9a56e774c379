/** /orders/:stage: the same screen as /orders with a tab chosen (app/routes/orders.tsx). */
export { default, links, loader, meta } from "./orders";
