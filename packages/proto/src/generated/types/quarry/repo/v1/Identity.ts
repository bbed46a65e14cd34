// Original file: /work/main/proto/quarry/repo/v1/repo.proto


/**
 * A commit author or committer identity.
 */
export interface Identity {
  /**
   * Display name.
   */
  'name'?: (string);
  /**
   * E-mail address.
   */
  'email'?: (string);
}

/**
 * A commit author or committer identity.
 */
export interface Identity__Output {
  /**
   * Display name.
   */
  'name': (string);
  /**
   * E-mail address.
   */
  'email': (string);
}
