/** A proto statistics message as the gateway receives it (project or group): numbers, maybe absent. */
interface StatisticsFigures {
  storageSize?: number | string | null;
  repositorySize?: number | string | null;
  wikiSize?: number | string | null;
  lfsObjectsSize?: number | string | null;
  jobArtifactsSize?: number | string | null;
  pipelineArtifactsSize?: number | string | null;
  packagesSize?: number | string | null;
  snippetsSize?: number | string | null;
  uploadsSize?: number | string | null;
}

/** The storage sizes GitLab's project and group statistics share (zeros where nothing was measured). */
export function storageStatistics(s: StatisticsFigures | null | undefined) {
  const n = (v: number | string | undefined | null) => Number(v ?? 0);
  return {
    storage_size: n(s?.storageSize),
    repository_size: n(s?.repositorySize),
    wiki_size: n(s?.wikiSize),
    lfs_objects_size: n(s?.lfsObjectsSize),
    job_artifacts_size: n(s?.jobArtifactsSize),
    pipeline_artifacts_size: n(s?.pipelineArtifactsSize),
    packages_size: n(s?.packagesSize),
    snippets_size: n(s?.snippetsSize),
    uploads_size: n(s?.uploadsSize),
  };
}
