import { WeftError } from '../core/errors.js';

/**
 * Why a pick was refused or failed; the message names the value and what is allowed.
 * - `bad-coordinates`: points that are not a non-empty array of finite `{ x, y }` (names `points[i]`);
 * - `out-of-range`: a pixel or rectangle outside the framebuffer, a pick ID outside 1..2^24 − 1;
 * - `bad-option`, `bad-ignore`: an option outside what is allowed (viewport, devicePixelRatio, filters, `ignore`);
 * - `bad-rule`: a discard rule of the wrong shape; `rule-compile`: a rule that does not compile (`messages` locate it);
 * - `bad-data`: a rule's storage `data(mesh)` returned or threw something unusable;
 * - `bad-format`: a mesh attribute format a rule's `vertexData` cannot read;
 * - `bad-pick-source`: a pick source module of the wrong shape; `pick-source-load`: its module failed to load;
 * - `limit-exceeded`: more points or pick IDs than one pass allows;
 * - `unsupported`: a combination weft cannot pick yet; `device-lost`, `disposed`, `no-camera`.
 */
export type PickErrorCode =
  | 'bad-coordinates'
  | 'out-of-range'
  | 'bad-option'
  | 'bad-ignore'
  | 'bad-rule'
  | 'rule-compile'
  | 'bad-data'
  | 'bad-format'
  | 'bad-pick-source'
  | 'pick-source-load'
  | 'limit-exceeded'
  | 'unsupported'
  | 'device-lost'
  | 'disposed'
  | 'no-camera';

/** One compile message of a discard rule, located in the rule's own text. */
export interface PickRuleMessage {
  /** `wgsl` or `worldAdjustWgsl` (the rule's texts); otherwise the weft fragment or generated module it is about. */
  file: string;
  /** 1-based, in that text. */
  line: number;
  /** 1-based, in that text. */
  column: number;
  type: GPUCompilationMessageType;
  /** The device's or wesl's message (first line). */
  message: string;
  /** The line it points at, verbatim. */
  lineText: string;
}

/** A refused or failed pick: bad coordinates, a disposed picker, a lost device, too many IDs, a broken rule. */
export class PickError extends WeftError<PickErrorCode> {
  /** For `rule-compile`: the rule's compile messages, at lines and columns of its own text (empty otherwise). */
  readonly messages: readonly PickRuleMessage[];

  constructor(api: string, code: PickErrorCode, message: string, messages: readonly PickRuleMessage[] = []) {
    super(api, code, message);
    this.name = 'PickError';
    this.messages = messages;
  }
}
