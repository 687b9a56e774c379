-- ADR 0050: payout details go to the payment provider as tokens made in the browser; we keep the account id and
-- last fours only. Set-ups saved before it kept the representative's birth date and the routing number: forgotten.
UPDATE "payout_profiles" SET "date_of_birth" = '', "routing_number" = '' WHERE "date_of_birth" <> '' OR "routing_number" <> '';
