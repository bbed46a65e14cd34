import { z } from "zod";

/** Thrown when the environment does not satisfy a service's schema; lists every bad variable. */
export class EnvError extends Error {
  constructor(readonly issues: string[]) {
    super(`invalid environment:\n  ${issues.join("\n  ")}`);
    this.name = "EnvError";
  }
}

/**
 * Parses an environment (normally `process.env`, passed in by the service's env.ts, the only
 * module allowed to read it) against a zod object schema. Empty strings count as unset so that
 * `FOO=` in a compose file falls back to the default.
 */
export function parseEnv<S extends z.ZodRawShape>(shape: S, source: Record<string, string | undefined>): z.infer<z.ZodObject<S>> {
  const cleaned: Record<string, string> = {};
  for (const [key, value] of Object.entries(source)) {
    if (value !== undefined && value !== "") cleaned[key] = value;
  }
  const result = z.object(shape).safeParse(cleaned);
  if (!result.success) {
    throw new EnvError(result.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`));
  }
  return result.data;
}

/** "true/false/1/0/yes/no" in any case. */
export const envBoolean = (defaultValue: boolean) =>
  z
    .string()
    .default(String(defaultValue))
    .transform((v, ctx) => {
      const s = v.toLowerCase();
      if (["true", "1", "yes", "on"].includes(s)) return true;
      if (["false", "0", "no", "off"].includes(s)) return false;
      ctx.addIssue({ code: "custom", message: `expected a boolean, got "${v}"` });
      return z.NEVER;
    });

/** A TCP port (0 = pick a free one). */
export const envPort = (defaultValue: number) => z.coerce.number().int().min(0).max(65535).default(defaultValue);

/** A positive integer such as a timeout in milliseconds. */
export const envInt = (defaultValue: number) => z.coerce.number().int().min(0).default(defaultValue);

/** A host:port gRPC address. */
export const envAddress = (defaultValue?: string) => {
  const s = z.string().regex(/^[^\s:]+:\d+$/, "expected host:port");
  return defaultValue === undefined ? s : s.default(defaultValue);
};

/** The S3/MinIO settings shared by services that write objects. */
export const minioShape = {
  MINIO_ENDPOINT: z.string().optional(),
  MINIO_PORT: envPort(9000),
  MINIO_USE_SSL: envBoolean(false),
  MINIO_ACCESS_KEY: z.string().optional(),
  MINIO_SECRET_KEY: z.string().optional(),
};

export { z };
