import { serviceBundle } from "@quarry/tsconfig/tsup.service.mjs";
import { defineConfig } from "tsup";

export default defineConfig(serviceBundle);
