import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Schemas } from '../api/client';
import { formatValue, type Unit, unitLabel } from '../units';

export interface Marker {
  label: string;
  at: string;
  color: string;
  /** What happened then (a change's summary), drawn after the label, cut to fit. */
  detail?: string;
}

/** The longest detail drawn beside a marker's line (the list of marked times has it whole). */
const DETAIL_DRAWN = 48;

const COLORS = ['#0b57d0', '#b3261e', '#137333', '#8430ce', '#b06000', '#007b83'];
const HEIGHT = 280;

/**
 * The series of one run, plotted with uPlot (loaded only when a plot is shown): times in the zone
 * chosen, values in their unit, a vertical line at each marker (the onset, the alert, the cause,
 * changes) and a horizontal one at the alert's threshold. Its width follows its container.
 */
export default function SeriesPlot(props: {
  view: Schemas['RunSeriesView'];
  markers: Marker[];
  from: string | null;
  until: string | null;
  unit: Unit;
  /** The IANA zone the time axis is drawn in. */
  zone: string;
  threshold?: number | null;
}) {
  const { view, markers, from, until, unit, zone, threshold = null } = props;
  const target = useRef<HTMLDivElement>(null);
  // Drawn again only when what it shows changes, not on every render of the page.
  const markersKey = JSON.stringify(markers);
  useEffect(() => {
    const element = target.current;
    if (!element || !view.series.length) return;
    const times = [...new Set(view.series.flatMap((s) => s.times))].sort();
    const xs = times.map((t) => Date.parse(t) / 1000);
    const index = new Map(times.map((t, i) => [t, i]));
    const ys = view.series.map((s) => {
      const column: Array<number | null> = new Array(times.length).fill(null);
      s.times.forEach((t, i) => (column[index.get(t)!] = s.values[i]));
      return column;
    });
    const scale = devicePixelRatio;
    const draw = (u: uPlot) => {
      const { ctx } = u;
      ctx.save();
      ctx.font = `${12 * scale}px sans-serif`;
      if (threshold !== null) {
        const y = u.valToPos(threshold, 'y', true);
        ctx.strokeStyle = '#b3261e';
        ctx.lineWidth = 1.5 * scale;
        ctx.setLineDash([2 * scale, 3 * scale]);
        ctx.beginPath();
        ctx.moveTo(u.bbox.left, y);
        ctx.lineTo(u.bbox.left + u.bbox.width, y);
        ctx.stroke();
        ctx.fillStyle = '#b3261e';
        ctx.fillText(`threshold ${formatValue(threshold, unit)}`, u.bbox.left + 4 * scale, y - 4 * scale);
      }
      markers.forEach((marker, i) => {
        const x = u.valToPos(Date.parse(marker.at) / 1000, 'x', true);
        if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) return;
        ctx.strokeStyle = marker.color;
        ctx.lineWidth = 2 * scale;
        ctx.setLineDash([6 * scale, 4 * scale]);
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.fillStyle = marker.color;
        const detail = marker.detail && marker.detail.length > DETAIL_DRAWN ? `${marker.detail.slice(0, DETAIL_DRAWN - 1)}…` : marker.detail;
        const text = detail ? `${marker.label}: ${detail}` : marker.label;
        // A label that would leave the plot on the right is drawn to the left of its line.
        const width = ctx.measureText(text).width;
        const left = x + 4 * scale + width > u.bbox.left + u.bbox.width ? Math.max(u.bbox.left, x - 4 * scale - width) : x + 4 * scale;
        // Labels of markers close together are stacked rather than drawn over each other.
        ctx.fillText(text, left, u.bbox.top + (14 + 14 * (i % 4)) * scale);
      });
      ctx.restore();
    };
    const plot = new uPlot(
      {
        width: Math.max(element.clientWidth, 280),
        height: HEIGHT,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), zone),
        scales: {
          // The run's window, so a run with few samples is still shown in its time.
          x: from && until ? { time: true, range: [Date.parse(from) / 1000, Date.parse(until) / 1000] } : { time: true },
          // The threshold is always in view.
          y: {
            range: (_u, min, max) => {
              const low = Math.min(min ?? 0, threshold ?? Infinity, 0);
              const high = Math.max(max ?? 1, threshold ?? -Infinity);
              return [low, high === low ? low + 1 : high + (high - low) * 0.08];
            },
          },
        },
        series: [
          { value: '{YYYY}-{MM}-{DD} {HH}:{mm}:{ss}' },
          ...view.series.map((s, i) => ({
            label: s.name,
            stroke: COLORS[i % COLORS.length],
            width: 1.5,
            spanGaps: false,
            value: (_u: uPlot, v: number | null) => formatValue(v, unit),
          })),
        ],
        axes: [{}, { label: unitLabel(unit), size: 70, values: (_u, splits) => splits.map((v) => formatValue(v, unit)) }],
        hooks: { draw: [draw] },
      },
      [xs, ...ys] as uPlot.AlignedData,
      element,
    );
    const resized = new ResizeObserver(() => plot.setSize({ width: Math.max(element.clientWidth, 280), height: HEIGHT }));
    resized.observe(element);
    return () => {
      resized.disconnect();
      plot.destroy();
    };
  }, [view, markersKey, from, until, unit, zone, threshold]);
  if (!view.series.length) return <p className="empty">This run read no time series to plot.</p>;
  return <div ref={target} className="plot" role="img" aria-label={`Plot of run #${view.ordinal}: ${view.series.map((s) => s.name).join(', ')}`} />;
}
