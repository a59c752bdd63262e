import type { ToolWindow } from './tool.types';

/** A problem a tool reports as a failed run (bad answer, HTTP error, unreachable host), never a crash. */
export class ToolFailure extends Error {
  constructor(
    message: string,
    readonly sources: string[] = [],
    readonly window?: ToolWindow,
  ) {
    super(message);
    this.name = 'ToolFailure';
  }
}
