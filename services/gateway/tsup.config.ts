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
});
