/** A queue and the job names a domain module puts on it; the worker checks each has one processor. */
export class JobDeclaration {
  constructor(
    readonly queue: string,
    readonly jobs: readonly string[],
  ) {}
}
