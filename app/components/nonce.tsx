import { createContext, useContext, type ReactNode } from "react";

/**
 * The page's CSP nonce (app/utils/csp.server.ts): app/entry.server.tsx provides it while rendering; root.tsx
 * hands it to Remix's inline scripts. In the browser it is "" (browsers hide nonces from the DOM anyway).
 */
const NonceContext = createContext("");

export function NonceProvider({ value, children }: { value: string; children: ReactNode }) {
  return <NonceContext.Provider value={value}>{children}</NonceContext.Provider>;
}

export function useNonce(): string {
  return useContext(NonceContext);
}
