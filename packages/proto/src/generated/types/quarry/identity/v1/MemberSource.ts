// Original file: /work/main/proto/quarry/identity/v1/identity.proto


/**
 * What a membership is attached to.
 */
export interface MemberSource {
  /**
   * "project" or "group".
   */
  'kind'?: (string);
  /**
   * Integer id or full path of the project or group.
   */
  'idOrPath'?: (string);
}

/**
 * What a membership is attached to.
 */
export interface MemberSource__Output {
  /**
   * "project" or "group".
   */
  'kind': (string);
  /**
   * Integer id or full path of the project or group.
   */
  'idOrPath': (string);
}
