import { PassThrough } from "node:stream";
import type { ActionFunctionArgs, EntryContext, LoaderFunctionArgs } from "@remix-run/node";
import { isRouteErrorResponse, RemixServer } from "@remix-run/react";
import { DEFAULT_ERROR_TEXT, METHOD_NOT_ALLOWED_TEXT } from "./components/errors";
import { renderToPipeableStream } from "react-dom/server";
import { NonceProvider } from "~/components/nonce";
import { contentSecurityPolicy, newNonce } from "~/utils/csp.server";
import { getEnv } from "~/utils/env.server";
import { redactServerError } from "~/utils/server-error.server";

// Check the configuration when the server loads this build, not at the first request: a production server
// without real webhook secrets refuses to start (workers/web.mjs prints the message and exits).
getEnv();

/** How long a streamed response may stay open for deferred data (single fetch reads this). */
export const streamTimeout = 5_000;

/**
 * Errors are logged here, on the server, with their stack, then emptied of their message and stack (in any
 * mode: Remix serializes them outside production). The browser never sees a stack trace, SQL or parameters:
 * the root ErrorBoundary shows "500" / "A server error has occured" (docs/product/screens.md).
 */
export function handleError(
  error: unknown,
  { request }: LoaderFunctionArgs | ActionFunctionArgs,
): void {
  // The client went away: not a server error (nothing to log), and nothing of it is answered either.
  if (request.signal.aborted) return void redactServerError(error);
  if (isRouteErrorResponse(error) && (error as { internal?: boolean }).internal === true) {
    // The router's own refusal (a POST to a page without an action: 405). Remix sends this object to the
    // browser for hydration; its text and error name route files ("routes/viewlisting.$listingId.$action").
    // Remix calls this hook before it serializes the errors: keep the status, drop the text.
    const e = error as { data: unknown; error?: unknown };
    e.data = error.status === 405 ? METHOD_NOT_ALLOWED_TEXT : DEFAULT_ERROR_TEXT;
    delete e.error;
    return;
  }
  const where = `${request.method} ${new URL(request.url).pathname}`;
  console.error(`[server error] ${where}`, error);
  // Logged whole above; nothing of it goes into the answer, in any mode (app/utils/server-error.server.ts).
  redactServerError(isRouteErrorResponse(error) ? (error as { error?: unknown }).error : error);
}

/**
 * Pages are rendered whole and sent in one write: no route streams deferred data, and many small
 * socket writes cost a quarter of the server's CPU on the marketplace pages (docs/performance.md).
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  remixContext: EntryContext,
): Promise<Response> {
  return new Promise((resolve, reject) => {
    let shellRendered = false;
    // Abort a render that never completes, a little after the stream timeout; cleared once the page is
    // whole (an abort after the end costs an error object per page for nothing).
    const abortTimer = setTimeout(() => abort(), streamTimeout + 1_000);
    const env = getEnv();
    const nonce = newNonce();
    const csp = contentSecurityPolicy({
      nonce,
      stripe: !!env.STRIPE_PUBLISHABLE_KEY,
      chatWidgetSnippet: env.CHAT_WIDGET_SNIPPET,
      development: env.NODE_ENV === "development",
    });
    const page = (
      <NonceProvider value={nonce}>
        <RemixServer context={remixContext} url={request.url} nonce={nonce} />
      </NonceProvider>
    );
    const { pipe, abort } = renderToPipeableStream(page, {
      nonce,
      onAllReady() {
        shellRendered = true;
        const chunks: Buffer[] = [];
        const sink = new PassThrough();
        sink.on("data", (c: Buffer) => chunks.push(c));
        sink.on("end", () => {
          clearTimeout(abortTimer);
          // The other security headers (X-Frame-Options, nosniff, Referrer-Policy, Permissions-Policy, HSTS,
          // Cache-Control for signed-in pages) are set by workers/web.mjs.
          responseHeaders.set("Content-Type", "text/html; charset=utf-8");
          responseHeaders.set("Content-Security-Policy", csp);
          resolve(
            new Response(Buffer.concat(chunks), {
              headers: responseHeaders,
              status: responseStatusCode,
            }),
          );
        });
        sink.on("error", reject);
        pipe(sink);
      },
      onShellError(error: unknown) {
        clearTimeout(abortTimer);
        reject(error);
      },
      onError(error: unknown) {
        responseStatusCode = 500;
        // Errors during the initial shell reject above and are logged by Remix's handleError.
        if (shellRendered) console.error("[render error]", error);
      },
    });
  });
}
