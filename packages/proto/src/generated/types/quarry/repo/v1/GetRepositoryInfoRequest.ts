// Original file: /work/main/proto/quarry/repo/v1/repo.proto


/**
 * Reads basic facts about a repository.
 */
export interface GetRepositoryInfoRequest {
  /**
   * Repository path relative to the storage root.
   */
  'diskPath'?: (string);
}

/**
 * Reads basic facts about a repository.
 */
export interface GetRepositoryInfoRequest__Output {
  /**
   * Repository path relative to the storage root.
   */
  'diskPath': (string);
}
