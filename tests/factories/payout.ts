import type { PayoutDetailsInput } from "../../domain/payout";

/**
 * A merchant (payout) form that passes every rule of domain/payout.ts, with Stripe's test bank numbers
 * (routing 110000000, account 000123456789), which both the sandbox and stripe-mock accept.
 * Tests spread it and override the field they are about.
 */
export const validPayoutForm: PayoutDetailsInput = {
  first_name: "Jane",
  last_name: "Van Der Berg",
  email: "jane@harborline.test",
  date_of_birth: "04/15/1980",
  street_address: "12 Harbor St",
  locality: "Portland",
  region: "ME",
  postal_code: "04101",
  buslegal_name: "Harborline Shoes LLC",
  bustax_id: "12-3456789",
  busstreet_address: "14 Harbor St",
  buslocality: "Portland",
  busregion: "ME",
  buspostal_code: "04101",
  account_number: "000123456789",
  routing_number: "110000000",
  tos_accepted: true,
};
