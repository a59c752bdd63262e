import { earliest, firstSampleAt, MINUTE, seriesOf, shift } from '../series-reading';
import type { Timestamp } from '@svc/platform';
import type { Explainer } from './explainer';

/**
 * A scrape target of the alerting service that went down near the onset (`up == 0`, scoped to the
 * alert's job): Prometheus could not reach it. A proximate event: why it stopped answering is
 * left unexplained.
 */
export const targetDownExplainer: Explainer = {
  name: 'scrape targets down',
  reads: ['up'],
  appliesTo: () => true,
  async explain(ctx) {
    const onset = ctx.scope.onset;
    const job = ctx.jobMatcher;
    const down = await ctx.readFine(`up{${job}} == 0`, 'Was a scrape target down around the onset?', shift(onset, -15n * MINUTE), shift(onset, MINUTE));
    const at = earliest(
      seriesOf(down)
        .map(firstSampleAt)
        .filter((t): t is Timestamp => !!t && ctx.changedNear(t)),
    );
    if (!at) return null;
    const target = seriesOf(down)[0].metric;
    return {
      id: 'h-target-down',
      statement: `Target ${target.instance ?? ''} (${target.job ?? ''}) went down at ${at.toISOString()}`,
      at,
      run: down,
      mechanism: `Prometheus could not scrape ${target.instance ?? 'a target'} from ${at.toISOString()}`,
      mechanismRuns: [],
      chainRuns: [],
      unexplained: [`why ${target.instance ?? 'the target'} stopped answering scrapes`],
      action: {
        title: `Check ${target.instance ?? 'the target'} of job ${target.job ?? ''}`,
        rationale: 'It stopped answering scrapes at the onset',
        verification: 'up returns 1 for the target again',
      },
    };
  },
};
