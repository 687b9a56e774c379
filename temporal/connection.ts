/**
 * What every Temporal client and worker of this project connects with, from its parsed environment
 * (domain/env.ts): the data converter with the payload codec (temporal/codec.ts, ADR 0040) and TLS to the
 * frontend. The web process's client (app/utils/temporal.server.ts), the worker (workers/main.ts) and the tests'
 * clients and workers (tests/setup/temporal.ts) all take them from here, so every payload is sealed the same way.
 *
 *   const connection = await Connection.connect({ address: env.TEMPORAL_ADDRESS, tls: temporalTlsOf(env) });
 *   const client = new Client({ connection, dataConverter: dataConverterOf(env) });
 */
import type { DataConverter } from "@temporalio/common";
import { payloadKeysOf, temporalTlsOn, type Env } from "../domain/env";
import { AesGcmPayloadCodec, keyringOf } from "./codec";

type CodecEnv = Pick<Env, "PAYLOAD_KEYS" | "PAYLOAD_KEY_CURRENT">;

/** The payload codec of this environment's keys (the public development key when PAYLOAD_KEYS is empty). */
export function payloadCodecOf(env: CodecEnv): AesGcmPayloadCodec {
  return new AesGcmPayloadCodec(keyringOf(payloadKeysOf(env)));
}

/**
 * The data converter of every client and worker: the default payload converter, then the codec. PAYLOAD_CODEC=off
 * (benchmarks only, refused in production: domain/env.ts productionRefusals) leaves the codec out.
 */
export function dataConverterOf(
  env: CodecEnv & Partial<Pick<Env, "PAYLOAD_CODEC">>,
): DataConverter {
  return env.PAYLOAD_CODEC === "off" ? {} : { payloadCodecs: [payloadCodecOf(env)] };
}

/** TLS options for Connection.connect and NativeConnection.connect (undefined: plain text, loopback only in production). */
export function temporalTlsOf(
  env: Pick<
    Env,
    | "TEMPORAL_TLS"
    | "TEMPORAL_TLS_CA"
    | "TEMPORAL_TLS_CERT"
    | "TEMPORAL_TLS_KEY"
    | "TEMPORAL_TLS_SERVER_NAME"
  >,
):
  | {
      serverNameOverride?: string;
      serverRootCACertificate?: Buffer;
      clientCertPair?: { crt: Buffer; key: Buffer };
    }
  | undefined {
  if (!temporalTlsOn(env)) return undefined;
  const pem = (v: string | undefined) => (v?.trim() ? Buffer.from(v) : undefined);
  const crt = pem(env.TEMPORAL_TLS_CERT);
  const key = pem(env.TEMPORAL_TLS_KEY);
  return {
    ...(env.TEMPORAL_TLS_SERVER_NAME ? { serverNameOverride: env.TEMPORAL_TLS_SERVER_NAME } : {}),
    ...(pem(env.TEMPORAL_TLS_CA) ? { serverRootCACertificate: pem(env.TEMPORAL_TLS_CA) } : {}),
    ...(crt && key ? { clientCertPair: { crt, key } } : {}),
  };
}
