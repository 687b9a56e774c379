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

/** /buy/{brand} : the same page as /buy/?brand={brand} (the optional brand parameter). */
export const meta: MetaFunction = () => [{ title: pageTitle(TAB_LABELS.buy) }];
export const headers: HeadersFunction = marketplaceHeaders;
export const links: LinksFunction = () => [{ rel: "stylesheet", href: marketCss }];

export function loader({ request, params }: LoaderFunctionArgs) {
  return marketplaceLoader(request, "buy", params.brand);
}

export default function BuyBrandPage() {
  return <MarketplacePage />;
}
