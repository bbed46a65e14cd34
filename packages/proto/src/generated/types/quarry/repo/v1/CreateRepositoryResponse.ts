// Original file: /work/main/proto/quarry/repo/v1/repo.proto


/**
 * What was created.
 */
export interface CreateRepositoryResponse {
  /**
   * The README commit sha, or empty when the repository is empty.
   */
  'headCommitId'?: (string);
}

/**
 * What was created.
 */
export interface CreateRepositoryResponse__Output {
  /**
   * The README commit sha, or empty when the repository is empty.
   */
  'headCommitId': (string);
}
