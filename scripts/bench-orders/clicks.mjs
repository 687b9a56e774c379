// A user's clicks through full pages, timed: a page view, a form posted and the page it lands on, a page
// reloaded until it shows something. Every mode with full pages drives the app through these.
import { fill } from "../lib/html-forms.mjs";
import { recordTemplate } from "./commands-only.mjs";
import { StepError, errorText, now, postRetryingBusy, sleep } from "./page-text.mjs";

/** A page view between clicks (GET, redirects followed): timed unless warm. */
export async function view(bench, http, path, warm) {
  const t0 = now();
  const r = await http.get(path, { follow: true });
  if (!warm) bench.views.push(now() - t0);
  if (r.status !== 200) throw new StepError(`GET ${path}: ${r.status}`);
  return r;
}

/** Waits (reloading like the user would) until the page shows something; counts as a page view. */
export async function viewUntil(bench, ctx, http, path, shows, what) {
  const { o } = bench;
  const t0 = now();
  for (;;) {
    const r = await view(bench, http, path, ctx.warm);
    if (shows(r.body)) return r;
    if (now() - t0 > o.timeoutMs)
      throw new StepError(`${what}: not shown on ${path} within ${o.timeoutMs} ms`);
    ctx.lagMs = (ctx.lagMs ?? 0) + o.pollMs;
    await sleep(o.pollMs);
  }
}

/** Reloads `reload` every pollMs until the landing page shows the new state (a synchronous step must at once). */
async function untilShown(bench, stepName, http, landing, { shows, reload }, t0) {
  const { o } = bench;
  let polls = 0;
  while (shows && !shows(landing.body)) {
    // A synchronous step (no `reload`) must land on the new state at once.
    if (!reload)
      throw new StepError(
        `${stepName}: ${landing.url} does not show the new state ${errorText(landing.body)}`,
      );
    if (now() - t0 > o.timeoutMs)
      throw new StepError(
        `${stepName}: the page did not show the new state within ${o.timeoutMs} ms ${errorText(landing.body)}`,
      );
    await sleep(o.pollMs);
    polls++;
    landing = await http.get(reload ?? landing.url, { follow: true });
    if (landing.status !== 200)
      throw new StepError(
        `${stepName}: reloading ${reload ?? landing.url} answered ${landing.status}`,
      );
  }
  return { landing, polls };
}

/**
 * One click: POST the form, follow the redirect to the landing page, then (for asynchronous steps) reload
 * `reload` every pollMs until `shows(html)`. Times: total (click → page shows the state), action, page, wait.
 */
export async function click(
  bench,
  ctx,
  stepName,
  http,
  form,
  values,
  { shows, reload, expectStatus } = {},
) {
  const body = fill(form, values);
  const target = form.action || ctx.pageUrl;
  const t0 = now();
  const { r, busy } = await postRetryingBusy(bench.o, http, target, body, t0);
  const tAction = now();
  let landing = r;
  if (r.status >= 300 && r.status < 400 && r.location)
    landing = await http.get(r.location, { follow: true });
  const tPage = now();
  if (expectStatus && r.status !== expectStatus)
    throw new StepError(
      `${stepName}: POST ${target} answered ${r.status}${r.location ? ` → ${r.location}` : ""} ${errorText(r.body)}`,
    );
  if (landing.status !== 200)
    throw new StepError(
      `${stepName}: landed on ${landing.url} with ${landing.status} ${errorText(landing.body)}`,
    );
  const shown = await untilShown(bench, stepName, http, landing, { shows, reload }, t0);
  const tDone = now();
  bench.samples.push({
    step: stepName,
    order: ctx.i,
    total: tDone - t0,
    action: tAction - t0,
    page: tPage - tAction,
    wait: tDone - tPage,
    polls: shown.polls,
    busy,
    warm: ctx.warm,
  });
  if (ctx.capture)
    await recordTemplate(bench, ctx, stepName, { target, body, status: expectStatus ?? r.status });
  return shown.landing;
}
