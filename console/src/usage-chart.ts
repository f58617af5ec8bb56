import uPlot from 'uplot';
import { h } from './dom.js';
import type { DailySeries } from './usage-days.js';

const HEIGHT = 240;
const HALF_DAY_S = 43_200;
const bars = (align: -1 | 1) => uPlot.paths.bars!({ size: [0.4, 24], align });

/**
 * The 30 days as bars, admitted beside refused, on a canvas (uPlot: 50 KB, no dependency, styles set through the
 * DOM, which the console's CSP allows). Its legend gives a day's figures under the pointer; the table gives them all.
 */
export class UsageChart {
  readonly element = h('div', { class: 'chart', role: 'img' });
  private plot?: uPlot;

  show(series: DailySeries, description: string): void {
    this.element.setAttribute('aria-label', description);
    const data: uPlot.AlignedData = [series.days.map((day) => Date.parse(`${day}T00:00:00Z`) / 1000), series.admitted, series.refused];
    if (this.plot) return this.plot.setData(data);
    this.plot = new uPlot(
      {
        width: this.width(),
        height: HEIGHT,
        // Usage days are UTC days: so are the axis and the legend.
        tzDate: (seconds) => uPlot.tzDate(new Date(seconds * 1000), 'Etc/UTC'),
        scales: { x: { time: true, range: (_plot, min, max) => [min - HALF_DAY_S, max + HALF_DAY_S] } },
        series: [
          { label: 'Day (UTC)', value: '{YYYY}-{MM}-{DD}' },
          { label: 'Admitted', stroke: '#1d6b3f', fill: '#1d6b3fcc', paths: bars(-1), points: { show: false } },
          { label: 'Refused', stroke: '#b3261e', fill: '#b3261ecc', paths: bars(1), points: { show: false } },
        ],
        axes: [{}, { size: 56 }],
        cursor: { drag: { x: false, y: false } },
      },
      data,
      this.element,
    );
    new ResizeObserver(() => this.plot?.setSize({ width: this.width(), height: HEIGHT })).observe(this.element);
  }

  private width(): number {
    return Math.max(240, this.element.clientWidth);
  }
}
