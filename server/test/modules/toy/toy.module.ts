import { z } from 'zod';
import { NotFoundError } from '../../../src/platform/errors/app-errors.js';
import { defineJob, jobKind } from '../../../src/platform/jobs/jobs.types.js';
import { defineModule } from '../../../src/modules/module.js';
import { songCataloguePort } from '../../../src/features/library/library.port.js';
import { toyMessagesEn } from './toy.messages.en.js';
import { ToyRepository } from './toy.repository.js';
import { toyNotes } from './toy.schema.js';

/** Shouts a note: what a module's background work looks like. */
export const shoutJob = jobKind('toy.shout', z.object({ noteId: z.number().int().positive() }));

/**
 * A module as small as one can be: one table, two routes, one job, its texts, and one port it
 * requires. It lives only in the tests, to show what adding a feature takes.
 */
export const toyModule = defineModule({
  name: 'toy',
  summary: 'Notes about songs, shouted by a background job.',
  requires: [songCataloguePort],
  provides: [],
  tables: [toyNotes],
  jobs: [shoutJob],
  settings: [],
  tags: ['toy'],
  setup({ platform, use }) {
    const catalogue = use(songCataloguePort);
    const repository = new ToyRepository(platform.database.db);
    return {
      routes: async (app) => {
        app.addHook('onRequest', app.requireUser);
        app.post(
          '/toy/notes',
          { schema: { tags: ['toy'], body: z.object({ songId: z.number().int().positive(), text: z.string().min(1).max(200) }) } },
          async (request, reply) => {
            const song = await catalogue.get(request.body.songId, request.currentUser().id);
            const note = await repository.insert(song.id, request.body.text);
            await platform.jobs.send(shoutJob, { noteId: note.id });
            return reply.status(201).send({ id: note.id, message: toyMessagesEn.noteQueued });
          },
        );
        app.get('/toy/notes/:id', { schema: { tags: ['toy'], params: z.object({ id: z.coerce.number().int().positive() }) } }, async (request) => {
          const note = await repository.find(request.params.id);
          if (!note) throw new NotFoundError(toyMessagesEn.noteNotFound);
          return { id: note.id, songId: note.songId, text: note.text, shouted: note.shouted };
        });
      },
      jobs: [
        defineJob(shoutJob, {
          handler: (payload) => repository.shout(payload.noteId),
          retry: { limit: 1, delaySeconds: 1, backoff: false },
          expireInSeconds: 60,
          concurrency: 1,
          weight: 'light',
        }),
      ],
    };
  },
});
