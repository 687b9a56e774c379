#!/usr/bin/env node
// npm run gen:holidays — writes domain/us-federal-holidays.generated.ts from the installed date-holidays.
// Run it after upgrading date-holidays (its unit test says when) and commit the result.
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { GENERATED_HOLIDAYS_FILE, renderHolidayModule } from "./lib/holidays.mjs";
import { ROOT } from "./lib/paths.mjs";

const require = createRequire(import.meta.url);
const Holidays = require("date-holidays");
const { version } = require("date-holidays/package.json");
const file = path.join(ROOT, GENERATED_HOLIDAYS_FILE);
const source = renderHolidayModule(Holidays, version);
const before = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
fs.writeFileSync(file, source);
console.log(
  `${GENERATED_HOLIDAYS_FILE}: ${source === before ? "unchanged" : "written"} (date-holidays ${version})`,
);
