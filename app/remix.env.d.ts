/// <reference types="@remix-run/dev" />
/// <reference types="@remix-run/node" />

// Single Fetch (remix.config.js future.v3_singleFetch): loaders return plain objects, and
// useLoaderData<typeof loader> infers their types accordingly.
declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export {};
