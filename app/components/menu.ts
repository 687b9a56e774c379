/**
 * The menus (docs/product/screens.md, "Menus and banners"): groups and links. Pure data, rendered by the slide-out menu and
 * checked by unit tests. Logout is a POST form (never a GET link), so it is its own kind of item.
 */
export type MenuItem =
  | { kind: "link"; label: string; to: string }
  | { kind: "logout"; label: string; action: "/logout" };

export interface MenuGroup {
  title: string;
  items: MenuItem[];
}

const link = (label: string, to: string): MenuItem => ({ kind: "link", label, to });

export const HOW_IT_WORKS: MenuGroup = {
  title: "How It Works",
  items: [
    link("Getting Started", "/onboarding"),
    link("How Selling Works", "/how-selling-works"),
    link("Pricing", "/pricing"),
  ],
};

export interface MenuUser {
  email: string;
  isStaff: boolean;
}

/** Menu groups for a visitor (null) or a signed-in user. */
export function menuGroups(user: MenuUser | null): MenuGroup[] {
  if (!user) {
    return [
      HOW_IT_WORKS,
      {
        title: "Account",
        items: [link("Sign In", "/signin"), link("Register my store", "/register")],
      },
    ];
  }
  const groups: MenuGroup[] = [];
  if (user.isStaff)
    groups.push({
      title: "Admin",
      items: [link("Admin", "/admin"), link("Act as a retailer", "/act-as")],
    });
  groups.push(
    HOW_IT_WORKS,
    { title: "Browse", items: [link("Buy", "/buy"), link("Sell", "/sell"), link("Swap", "/swap")] },
    {
      title: "My Listings & Requests",
      items: [
        link("List a Product", "/addlisting"),
        link("Request a Product", "/requestlisting"),
        link("My Listings", "/active/listings"),
        link("My Requests", "/active/requests"),
      ],
    },
    { title: "Brands", items: [link("My Brands", "/brands")] },
    {
      title: "Inbox",
      items: [
        link("Alerts", "/alerts"),
        link("Declined", "/alerts?status=declined"),
        link("Orders", "/orders"),
        link("Returns", "/rma"),
        link("Statements", "/statements"),
      ],
    },
    {
      title: "My Profile",
      items: [
        link("Settings", "/settings"),
        { kind: "logout", label: `Logout ${user.email}`, action: "/logout" },
      ],
    },
  );
  return groups;
}

/** Where the logo points: staff land on /admin, everyone else on the home page. */
export function logoHref(user: MenuUser | null): string {
  return user?.isStaff ? "/admin" : "/";
}

/** Pages that look the same with or without a trailing slash (the specs write "/buy/"). */
export function samePath(a: string, b: string): boolean {
  const norm = (p: string) => (p.length > 1 ? p.replace(/\/+$/, "") : p);
  return norm(a) === norm(b);
}
