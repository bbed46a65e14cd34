import type { Metrics } from "@quarry/grpc";
import type { CatFilePool } from "./git/cat-file.ts";

/**
 * repo-service's `git cat-file` pool (git/cat-file.ts), read on scrape: processes serving a read
 * (`quarry_repo_catfile_processes_in_use`), alive (`quarry_repo_catfile_processes`) and the
 * bound (`quarry_repo_catfile_processes_max`). In use near the bound means reads queue up.
 */
export function registerRepoMetrics(metrics: Metrics, catFile: CatFilePool): void {
  metrics.scrapeGauge({
    name: "quarry_repo_catfile_processes_in_use",
    help: "git cat-file processes serving a read now.",
    collect: () => catFile.usage().inUse,
  });
  metrics.scrapeGauge({ name: "quarry_repo_catfile_processes", help: "git cat-file processes alive in the pool.", collect: () => catFile.usage().size });
  metrics.scrapeGauge({ name: "quarry_repo_catfile_processes_max", help: "Most git cat-file processes the pool keeps.", collect: () => catFile.usage().max });
}
