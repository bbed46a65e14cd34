// Original file: /work/main/proto/quarry/identity/v1/identity.proto


/**
 * Offset pagination input shared by list RPCs.
 */
export interface PageRequest {
  /**
   * 1-based page number; 0 means 1.
   */
  'page'?: (number);
  /**
   * Items per page; 0 means the default (20). Capped at 100.
   */
  'perPage'?: (number);
}

/**
 * Offset pagination input shared by list RPCs.
 */
export interface PageRequest__Output {
  /**
   * 1-based page number; 0 means 1.
   */
  'page': (number);
  /**
   * Items per page; 0 means the default (20). Capped at 100.
   */
  'perPage': (number);
}
