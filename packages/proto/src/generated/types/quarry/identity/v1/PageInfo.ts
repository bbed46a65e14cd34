// Original file: /work/main/proto/quarry/identity/v1/identity.proto

import type { Long } from '@grpc/proto-loader';

/**
 * Offset pagination output shared by list RPCs.
 */
export interface PageInfo {
  /**
   * Number of items matching the query across all pages.
   */
  'total'?: (number | string | Long);
  /**
   * The page that was returned (after defaults).
   */
  'page'?: (number);
  /**
   * The page size that was used (after defaults and capping).
   */
  'perPage'?: (number);
}

/**
 * Offset pagination output shared by list RPCs.
 */
export interface PageInfo__Output {
  /**
   * Number of items matching the query across all pages.
   */
  'total': (number);
  /**
   * The page that was returned (after defaults).
   */
  'page': (number);
  /**
   * The page size that was used (after defaults and capping).
   */
  'perPage': (number);
}
