// Original file: /work/main/proto/quarry/hook/v1/hook.proto

import type { Long } from '@grpc/proto-loader';

/**
 * A domain event as hook-service recorded it.
 */
export interface RecordedEvent {
  /**
   * Record id.
   */
  'id'?: (number | string | Long);
  /**
   * The event's own id (event_id of the payload); unique.
   */
  'eventId'?: (string);
  /**
   * Bus subject it arrived on, e.g. "quarry.identity.project_create".
   */
  'subject'?: (string);
  /**
   * event_name of the payload, e.g. "project_create".
   */
  'eventName'?: (string);
  /**
   * The payload as JSON text.
   */
  'payloadJson'?: (string);
  /**
   * When hook-service recorded it, ISO 8601.
   */
  'receivedAt'?: (string);
}

/**
 * A domain event as hook-service recorded it.
 */
export interface RecordedEvent__Output {
  /**
   * Record id.
   */
  'id': (number);
  /**
   * The event's own id (event_id of the payload); unique.
   */
  'eventId': (string);
  /**
   * Bus subject it arrived on, e.g. "quarry.identity.project_create".
   */
  'subject': (string);
  /**
   * event_name of the payload, e.g. "project_create".
   */
  'eventName': (string);
  /**
   * The payload as JSON text.
   */
  'payloadJson': (string);
  /**
   * When hook-service recorded it, ISO 8601.
   */
  'receivedAt': (string);
}
