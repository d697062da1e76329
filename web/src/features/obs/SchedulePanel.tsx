// The "Flash schedule" panel: the Gantt of the slow request picked in the
// table, or why there is none.
import { REQUEST_STAGES, type DeviceInfo } from '../../bridge/protocol';
import { ChartPanel } from '../../views';
import type { RequestRow } from './analysis';
import { ObsHelp } from './helpText';
import { noScheduleReason, type RequestSchedule } from './schedule';
import { ScheduleView } from './ScheduleView';

const BUFFER_WAIT = REQUEST_STAGES.indexOf('buffer_wait');

/** The schedule of the picked request; schedules is null until the records were analysed. */
export function SchedulePanel(props: {
  device: DeviceInfo;
  rows: RequestRow[] | null;
  schedules: Map<number, RequestSchedule> | null;
  picked: number | null;
}) {
  const { device, rows, schedules, picked } = props;
  const schedule = picked !== null ? schedules?.get(picked) : undefined;
  let body;
  if (picked === null) {
    body = <p className="muted obs__empty">Click a slow request to see the dies it waited for and what kept them busy.</p>;
  } else if (!schedules) {
    body = <p className="muted obs__empty">Pause or finish the run, or press Analyze records.</p>;
  } else if (schedule) {
    body = <ScheduleView schedule={schedule} device={device} />;
  } else {
    const row = rows?.find((r) => r.id === picked);
    body = (
      <p className="muted obs__empty" data-testid="schedule-none">
        {noScheduleReason(picked, row, BUFFER_WAIT)}
      </p>
    );
  }
  return (
    <ChartPanel
      title="Flash schedule"
      subtitle={schedule ? `request ${schedule.id}: the dies it waited for, by channel and way` : 'of the picked request'}
      help={ObsHelp.schedule}
      exportName={picked !== null ? `flash-schedule-request-${picked}` : 'flash-schedule'}
    >
      {body}
    </ChartPanel>
  );
}
