import { z } from "zod";

/** Largest id a Postgres integer column holds: a larger number is not an id (and would make a query fail, not miss). */
export const MAX_ROW_ID = 2_147_483_647;

/** A row id as a form or URL sends it: a positive Postgres integer. */
export const RowId = z.coerce.number().int().positive().max(MAX_ROW_ID);
