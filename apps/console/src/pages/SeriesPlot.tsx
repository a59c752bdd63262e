import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Schemas } from '../api/client';

export interface Marker {
  label: string;
  at: string;
  color: string;
}

const COLORS = ['#0b57d0', '#b3261e', '#137333', '#8430ce', '#b06000', '#007b83'];

/**
 * The series of one run, plotted with uPlot (loaded only when a plot is shown), with a vertical
 * line at each marker (the onset, the cause's time).
 */
export default function SeriesPlot(props: { view: Schemas['RunSeriesView']; markers: Marker[]; from: string | null; until: string | null; width?: number }) {
  const { view, markers, from, until, width = 900 } = props;
  const target = useRef<HTMLDivElement>(null);
  // Drawn again only when what it shows changes, not on every render of the page.
  const markersKey = JSON.stringify(markers);
  useEffect(() => {
    if (!target.current || !view.series.length) return;
    const times = [...new Set(view.series.flatMap((s) => s.times))].sort();
    const xs = times.map((t) => Date.parse(t) / 1000);
    const index = new Map(times.map((t, i) => [t, i]));
    const ys = view.series.map((s) => {
      const column: Array<number | null> = new Array(times.length).fill(null);
      s.times.forEach((t, i) => (column[index.get(t)!] = s.values[i]));
      return column;
    });
    const drawMarkers = (u: uPlot) => {
      const { ctx } = u;
      for (const marker of markers) {
        const x = u.valToPos(Date.parse(marker.at) / 1000, 'x', true);
        if (x < u.bbox.left || x > u.bbox.left + u.bbox.width) continue;
        ctx.save();
        ctx.strokeStyle = marker.color;
        ctx.lineWidth = 2 * devicePixelRatio;
        ctx.setLineDash([6, 4]);
        ctx.beginPath();
        ctx.moveTo(x, u.bbox.top);
        ctx.lineTo(x, u.bbox.top + u.bbox.height);
        ctx.stroke();
        ctx.fillStyle = marker.color;
        ctx.font = `${12 * devicePixelRatio}px sans-serif`;
        ctx.fillText(marker.label, x + 4 * devicePixelRatio, u.bbox.top + 14 * devicePixelRatio);
        ctx.restore();
      }
    };
    const plot = new uPlot(
      {
        width,
        height: 280,
        // The run's window, so a run with few samples is still shown in its time.
        scales: from && until ? { x: { time: true, range: [Date.parse(from) / 1000, Date.parse(until) / 1000] } } : { x: { time: true } },
        series: [{}, ...view.series.map((s, i) => ({ label: s.name, stroke: COLORS[i % COLORS.length], width: 1.5, spanGaps: false }))],
        axes: [{}, {}],
        hooks: { draw: [drawMarkers] },
      },
      [xs, ...ys] as uPlot.AlignedData,
      target.current,
    );
    return () => plot.destroy();
  }, [view, markersKey, from, until, width]);
  if (!view.series.length) return <p className="empty">This run read no time series to plot.</p>;
  return <div ref={target} className="plot" role="img" aria-label={`Plot of run #${view.ordinal}: ${view.series.map((s) => s.name).join(', ')}`} />;
}
