import { Link, useSearchParams } from "@remix-run/react";

/** Previous / Next links of a paged staff list, keeping the search and sort of the URL. */
export function ListPager({ page, pages }: { page: number; pages: number }) {
  const [params] = useSearchParams();
  const pageLink = (n: number) => {
    const p = new URLSearchParams(params);
    p.set("page", String(n));
    p.delete("done");
    return `?${p}`;
  };
  return (
    <nav className="pager" aria-label="Pages">
      {page > 1 ? <Link to={pageLink(page - 1)}>‹ Previous</Link> : null} {page < pages ? <Link to={pageLink(page + 1)}>Next ›</Link> : null}
    </nav>
  );
}
