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
      {page > 1 ? <Link to={pageLink(page - 1)}>‹ Previous</Link> : null}{" "}
      {page < pages ? <Link to={pageLink(page + 1)}>Next ›</Link> : null}
    </nav>
  );
}

/**
 * Pages of a list whose count may be capped (db/queries/admin-resources COUNT_CAP): past the cap the
 * list reads "10,000+ … page 3 of 200+" and Next stays while pages are full.
 */
export function pagesOf(
  list: { count: number; capped?: boolean; rows: unknown[] },
  page: number,
  pageSize: number,
) {
  const exact = Math.max(1, Math.ceil(list.count / pageSize));
  const more = list.capped === true;
  return {
    pages: more ? Math.max(exact, page + (list.rows.length === pageSize ? 1 : 0)) : exact,
    countLabel: `${list.count.toLocaleString("en-US")}${more ? "+" : ""}`,
    more,
  };
}
