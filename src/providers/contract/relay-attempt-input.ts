import type { Response } from "express";
import type { Reservation } from "../../billing/billing-service.js";
import type { ClientGoneSignal } from "../../http/client-gone-signal.js";
import type { ChannelAttempt } from "./channel-attempt.js";
import type { ObservedUsage } from "./observed-usage.js";

/** What an upstream call asks of its headers beyond the credentials: a streamed answer, a JSON body, an accept. */
export interface UpstreamHeaderOptions {
  stream?: boolean;
  jsonBody?: boolean;
  accept?: string;
}

/**
 * One attempt of a billed capability as the relay hands it to an adapter: the channel, the client's response, the
 * reservation, and the ways to hand the answer over.
 */
export interface RelayAttemptInput {
  attempt: ChannelAttempt;
  /** The headers of an upstream call on this attempt: its channel key as the adapter carries it, body and accept. */
  upstreamHeaders(options?: UpstreamHeaderOptions): Record<string, string>;
  /** The client's response: streams are written to it as they go (JSON and binary answers go through deliver). */
  response: Response;
  /**
   * A value made once per request and shared by its attempts (a translation that downloaded media: a failover
   * reuses it instead of downloading again). `key` names the value within the request.
   */
  remember<Value>(key: string, create: () => Value): Value;
  signal: ClientGoneSignal;
  observed: ObservedUsage;
  requestId: string;
  /** The quota held for this request; a call with `handsOverReservation` stores it where it will be settled. */
  reservation: Reservation;
  /**
   * Hands over the JSON answer. A client that reads its balance right after the answer must see the request
   * billed: it is sent after settlement. Streams write as they go; the relay ends them after settlement.
   */
  deliver(body: unknown): void;
  /** Hands over a binary answer (audio), sent like `deliver`. */
  deliverBytes(contentType: string, bytes: Buffer): void;
  /**
   * Notes upstream ids this attempt made (a Responses answer's id and its output items' ids) as soon as they are
   * known, so continuations of them reach this channel and key; recorded before the answer ends.
   */
  noteCreatedIds(ids: readonly string[]): void;
}
