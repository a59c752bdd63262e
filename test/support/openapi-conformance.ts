import { afterEach, beforeEach, expect } from 'vitest';
import type { OpenApiContract } from './openapi-contract';

/**
 * Every test of the enclosing describe block checks the responses it received itself: each one
 * must match the OpenAPI document, and a test that received none through a watched client fails
 * (a conformance check that saw nothing proves nothing). The tally starts anew before each test,
 * so what a test is held to does not depend on which tests ran before it. `contract` is read when
 * the hooks run (it is usually loaded in a beforeAll).
 */
export function checkEachTestAgainstOpenApi(contract: () => OpenApiContract): void {
  beforeEach(() => {
    contract().startTally();
  });
  afterEach(() => {
    const { checked, problems } = contract().tally;
    expect(problems, 'responses the OpenAPI document does not describe').toEqual([]);
    expect(checked, 'responses checked against the OpenAPI document').toBeGreaterThan(0);
  });
}
