ALTER TABLE "household_gaps" ADD COLUMN "gap_mask" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
-- The rows written before the column: bit i for GAP_CODES[i] (lib/review/cross-sell.ts, append only).
UPDATE "household_gaps" SET "gap_mask" =
  (CASE WHEN 'AUTO_NO_HOME' = ANY("gaps") THEN 1 ELSE 0 END)
  | (CASE WHEN 'NO_UMBRELLA' = ANY("gaps") THEN 2 ELSE 0 END)
  | (CASE WHEN 'NO_FLOOD' = ANY("gaps") THEN 4 ELSE 0 END)
  | (CASE WHEN 'YOUNG_DRIVER' = ANY("gaps") THEN 8 ELSE 0 END)
  | (CASE WHEN 'MULTI_CARRIER' = ANY("gaps") THEN 16 ELSE 0 END)
WHERE "gaps" <> '{}';
