// Proves stripe-mock (started by npm test on :12111) answers like the Stripe API.
const base = process.env.STRIPE_MOCK_URL ?? "http://127.0.0.1:12111";

test("stripe-mock lists customers with a test key", async () => {
  const res = await fetch(`${base}/v1/customers`, {
    headers: { Authorization: "Bearer sk_test_123" },
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { object: string; data: unknown[] };
  expect(body.object).toBe("list");
  expect(Array.isArray(body.data)).toBe(true);
});

test("stripe-mock rejects a request without a key", async () => {
  const res = await fetch(`${base}/v1/customers`);
  expect(res.status).toBe(401);
});
