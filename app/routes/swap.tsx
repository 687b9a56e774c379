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

/** /swap/ : the marketplace (docs/product/screens.md, "Marketplace"), tab "Listings Available to Swap" (a brand as ?brand= or /swap/{brand}). */
export const meta: MetaFunction = () => [{ title: pageTitle(TAB_LABELS.swap) }];
export const headers: HeadersFunction = marketplaceHeaders;
export const links: LinksFunction = () => [{ rel: "stylesheet", href: marketCss }];

export function loader({ request }: LoaderFunctionArgs) {
  return marketplaceLoader(request, "swap");
}

export default function SwapPage() {
  return <MarketplacePage />;
}
