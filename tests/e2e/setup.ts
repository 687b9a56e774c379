/**
 * The e2e suite's setup file (vitest.config.ts): what every browser test file gets without asking. The files
 * of one Vitest process share their modules (and so the harness's browser), so these hooks are registered here,
 * once per file, not at the top of the harness.
 */
import { afterAll, afterEach } from "vitest";
import { closeFileResources, failOnPageErrors, screenshotOpenPages } from "./harness";

afterEach(screenshotOpenPages);
afterEach(failOnPageErrors);
afterAll(closeFileResources);
