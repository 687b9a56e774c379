import { z } from "zod";

/** A sizes map: size label -> non-negative integer unit count. Validated in db/queries on every write;
 * the database enforces it too with CHECK (sizes_map_valid(col)), the function made by migration 0000. */
export const SizesMapSchema = z.record(
  z.string().min(1).max(40),
  z.number().int().min(0).max(100000),
);
export type SizesMap = z.infer<typeof SizesMapSchema>;
