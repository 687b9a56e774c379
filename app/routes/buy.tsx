import type {
  HeadersFunction,
  LinksFunction,
  LoaderFunctionArgs,
  MetaFunction,
} from "@remix-run/node";
import { marketplaceHeaders, marketplaceLoader } from "~/utils/marketplace.server";
import marketCss from "~/components/marketplace/marketplace.css";
import { MarketplacePage } from "~/components/marketplace/MarketplacePage";
import { TAB_LABELS } from "~/utils/marketplace-query";
import { pageTitle } from "~/components/title";

/** /buy/ : the marketplace (docs/product/screens.md, "Marketplace"), tab "Listings Available to Buy" (a brand as ?brand= or /buy/{brand}). */
export const meta: MetaFunction = () => [{ title: pageTitle(TAB_LABELS.buy) }];
export const headers: HeadersFunction = marketplaceHeaders;
export const links: LinksFunction = () => [{ rel: "stylesheet", href: marketCss }];

export function loader({ request }: LoaderFunctionArgs) {
  return marketplaceLoader(request, "buy");
}

export default function BuyPage() {
  return <MarketplacePage />;
}
