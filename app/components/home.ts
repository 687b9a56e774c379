/** The four cards of the home page (docs/product/screens.md, "Home"), verbatim. */
export const HOME_CARDS = [
  { kicker: "LIST", text: "what didn't sell", to: "/addlisting/" },
  { kicker: "REQUEST", text: "what you need", to: "/requestlisting/" },
  { kicker: "BUY", text: "see what other retailers have listed", to: "/buy/" },
  { kicker: "SELL", text: "see what others requested", to: "/sell/" },
] as const;
