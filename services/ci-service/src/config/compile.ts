import { compileConfig } from "./config.ts";
import { seedPipeline } from "./seed.ts";
import type { CompileResult, PipelineContext } from "./types.ts";

/**
 * Compiles a `.gitlab-ci.yml` for one pipeline: the jobs and trigger jobs it creates, a
 * "filtered" answer when workflow or job rules leave nothing to run, or GitLab's yaml_errors.
 * Never throws on user input.
 */
export function compilePipeline(yamlText: string, ctx: PipelineContext): CompileResult {
  const config = compileConfig(yamlText, ctx);
  if (!config.ok) return { status: "invalid", errors: config.errors };
  return seedPipeline(config.config, ctx);
}
