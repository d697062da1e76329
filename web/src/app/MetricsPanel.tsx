// The metrics panel: the numbers of Frame.metrics that matter, with units and
// a tooltip each. The whole object is also exposed as JSON (data-metrics) for
// tests and scripts, next to the simulated time and the finished flag.
import { memo } from 'react';
import type { Metrics } from '../bridge/protocol';
import { ChartPanel } from '../views';
import { formatInt, formatSimTime } from './format';
import { HELP, LATENCY_COLUMNS, METRIC_COLUMNS, formatLatency, metricAt } from './metricsSpec';

export interface MetricsPanelProps {
  metrics: Metrics | null;
  nowNs: number;
  events: number;
  finished: boolean;
  /** Extra definitions (the views' glossary) that override HELP by term. */
  glossary?: Record<string, string>;
}

const PANEL_HELP =
  'Counters of the whole run so far, exactly as the command-line simulator reports them (ssdplay run --format json): ' +
  'they come from always-on counters, not from the sampled record stream. Hover a name for its meaning.\n\n' +
  'Latency is from submission to completion as the host sees it, in microseconds. Export › Metrics saves all of them ' +
  'as CSV or JSON.';

export const MetricsPanel = memo(function MetricsPanel({ metrics, nowNs, events, finished, glossary }: MetricsPanelProps) {
  const help = (term: string) => glossary?.[term] ?? HELP[term] ?? '';
  return (
    <div
      className="metrics"
      data-testid="metrics"
      data-metrics={metrics ? JSON.stringify(metrics) : ''}
      data-sim-ns={nowNs}
      data-finished={finished ? 'true' : 'false'}
    >
      <ChartPanel
        title="Metrics"
        subtitle={`${formatSimTime(nowNs)} · ${formatInt(events)} events`}
        help={PANEL_HELP}
        noExport
      >
      {metrics ? (
        <div className="metrics__body">
          <table className="metrics__lat" aria-label="Request latency, µs">
            <caption className="sr-only">Request latency in microseconds</caption>
            <thead>
              <tr>
                <th scope="col" title={help('latency')}>
                  <abbr title={help('latency')}>latency µs</abbr>
                </th>
                {LATENCY_COLUMNS.map((c) => (
                  <th scope="col" key={c.key} title={help('latency')}>
                    {c.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {(['read', 'write'] as const).map((dir) => {
                const lat = metrics.host[dir].lat_us;
                return (
                  <tr key={dir} data-metric={`host.${dir}.lat_us`}>
                    <th scope="row" title={`${dir === 'read' ? 'Reads' : 'Writes'}: ${formatInt(lat.count)} completed`}>
                      {dir} <span className="metrics__count">{formatInt(lat.count)}</span>
                    </th>
                    {LATENCY_COLUMNS.map((c) => (
                      <td key={c.key} data-metric={`host.${dir}.lat_us.${c.key}`}>
                        {lat.count ? formatLatency(lat[c.key]) : '—'}
                      </td>
                    ))}
                  </tr>
                );
              })}
            </tbody>
          </table>
          <div className="metrics__groups">
            {METRIC_COLUMNS.map((column, ci) => (
              <div className="metrics__col" key={ci}>
                {column.map((g) => (
                  <dl className="metrics__group" key={g.title} aria-label={g.title}>
                    <div className="metrics__group-title">{g.title}</div>
                    {g.metrics.map((m) => {
                      const v = metricAt(metrics, m.path);
                      return (
                        <div className="metric" key={m.path} data-metric={m.path} title={help(m.term)}>
                          <dt>{m.label}</dt>
                          <dd>
                            <span className="metric__value">{m.format(v)}</span>
                            {m.unit ? <span className="metric__unit"> {m.unit}</span> : null}
                          </dd>
                        </div>
                      );
                    })}
                  </dl>
                ))}
              </div>
            ))}
          </div>
        </div>
      ) : (
        <p className="panel__empty">No scenario running.</p>
      )}
      </ChartPanel>
    </div>
  );
});
