// Demo A/B experiments on 보험료 무료 점검 캠페인: a finished one with a clear winner (B's headline
// was promoted; its figures are archived as the stop archived them) and a running one with too
// little data yet (a few days of visits, a handful of the landing's demo leads attributed to it).
// Not on 11월 임플란트 무료 상담: that one is the benchmarks' single-variant landing, compared
// against earlier releases, and the browser test starts its own experiment there.
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';
import { addDays, seoulDay } from '../../contracts/kst.ts';
import { experimentVerdict } from '../../contracts/experiment-stats.ts';
import { landingContent } from '../../contracts/landings.ts';

export async function seedDemoExperiments(db: Kysely<Database>, now = new Date()): Promise<void> {
  const landing = await db.selectFrom('landings').select(['id', 'content']).where('landing_code', '=', 'free-checkup').executeTakeFirst();
  if (!landing) return;
  const content = landingContent.parse(JSON.parse(landing.content));
  const at = (daysAgo: number) => new Date(now.getTime() - daysAgo * 86_400_000).toISOString();
  const iso = now.toISOString();

  // Finished three weeks ago: B (a question as the headline) won clearly; the landing already shows it.
  const finished = await db
    .insertInto('landing_experiments')
    .values({
      landing_id: landing.id, name: '대표 문구 실험 (질문형)', status: 'stopped', started_at: at(40), stopped_at: at(21), stop_at: null, winner: 'B',
      results: JSON.stringify(
        experimentVerdict([
          { key: 'A', weight: 50, visits: 2412, leads: 84, validLeads: 71 },
          { key: 'B', weight: 50, visits: 2389, leads: 131, validLeads: 117 },
        ]),
      ),
      created_by: null, stopped_by: null, created_at: at(41), updated_at: at(21),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('landing_experiment_variants')
    .values([
      { experiment_id: finished.id, key: 'A', weight: 50, content: null, created_at: at(41), updated_at: at(41) },
      { experiment_id: finished.id, key: 'B', weight: 50, content: JSON.stringify(content), created_at: at(41), updated_at: at(41) },
    ])
    .execute();

  // Running for three days: the button text, too little data to tell.
  const running = await db
    .insertInto('landing_experiments')
    .values({
      landing_id: landing.id, name: '버튼 문구 실험', status: 'running', started_at: at(3), stopped_at: null, stop_at: null, winner: null, results: null,
      created_by: null, stopped_by: null, created_at: at(3), updated_at: at(3),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await db
    .insertInto('landing_experiment_variants')
    .values([
      { experiment_id: running.id, key: 'A', weight: 50, content: null, created_at: at(3), updated_at: at(3) },
      { experiment_id: running.id, key: 'B', weight: 50, content: JSON.stringify({ ...content, ctaLabel: '3분 만에 무료 점검 신청' }), created_at: at(3), updated_at: at(3) },
    ])
    .execute();
  const today = seoulDay(now);
  const visits = [[21, 19], [17, 22], [12, 15]] as const;
  await db
    .insertInto('visit_variants')
    .values(visits.flatMap(([a, b], i) => [
      { experiment_id: running.id, variant: 'A', day: addDays(today, -i), count: a },
      { experiment_id: running.id, variant: 'B', day: addDays(today, -i), count: b },
    ]))
    .execute();
  // The landing's demo leads of these three days are the experiment's, alternately A and B.
  const recent = await db.selectFrom('leads').select('id').where('landing_id', '=', landing.id).where('created_at', '>=', at(3)).orderBy('id').limit(7).execute();
  for (const [i, l] of recent.entries()) {
    await db.updateTable('leads').set({ experiment_id: running.id, variant: i % 2 ? 'B' : 'A', updated_at: iso }).where('id', '=', l.id).execute();
  }
}
