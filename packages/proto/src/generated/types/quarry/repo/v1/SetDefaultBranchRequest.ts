// Original file: /work/main/proto/quarry/repo/v1/repo.proto


/**
 * Points HEAD at another branch (the project's default branch changed).
 */
export interface SetDefaultBranchRequest {
  /**
   * Repository path relative to the storage root.
   */
  'diskPath'?: (string);
  /**
   * The branch name.
   */
  'branch'?: (string);
  /**
   * Refuse when the branch does not exist (false for empty repositories).
   */
  'mustExist'?: (boolean);
}

/**
 * Points HEAD at another branch (the project's default branch changed).
 */
export interface SetDefaultBranchRequest__Output {
  /**
   * Repository path relative to the storage root.
   */
  'diskPath': (string);
  /**
   * The branch name.
   */
  'branch': (string);
  /**
   * Refuse when the branch does not exist (false for empty repositories).
   */
  'mustExist': (boolean);
}
