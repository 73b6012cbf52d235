/**
 * Released migrations never change (their hashes are checked against every database opened):
 * this pins the hash of each, in both spellings, so that an edit (a comment inside the SQL
 * included) fails here rather than on a user's database.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SERVER_MIGRATIONS } from '../../../electron/service/store/postgres/server-migrations';
import { MIGRATIONS } from '../../../electron/service/store/sql/migrations/index';
import { postgresMigration } from '../../../electron/service/store/sql/migrations/postgres-dialect';
import { migrationHash } from '../../../electron/service/store/sql/migrations/runner';

const RELEASED = {
  sqlite: [
    'c9d65ed7ed3cb72faa5bd4b6c4caffef5f2e3e0648d30a51af4fd757fa672aaf',
    '6ea19d1dd68b318c9ef3bdd97e0f38c34d29c0039144f91ef26bfcd4206c62a3',
    '95f57f8f79c53dc6b84e4254714b547616bd59d8b8e486863bdeb31591d80fbb',
    '176438fd1cee8506017b7e647c5988f2a0ac742182e228831d0d39acdd321ad7',
    '7f39c269ad2319e2576fad9a155fd1070e33681315de69b513118cccb5d88a2a',
    'd50392547cf519e2baf22fdd524c416752ed8c1e87368a64d1cce129e611f615',
    '20aa6c3b15622c343dbda100267d4278961126d192a376c654e4f112523b10a3',
    'c407f88a0503efcca109589808e34fc2bc694754850e1228816dad307100939a',
    '96c0cef0924adc2f35a3cca0c6866f23096c8f2f6017f15475324aae1c8ea623',
    'f608f19bdc5a8f763f0994239178aa6498b88779eba8116acc53426eabb3dd32',
  ],
  postgres: [
    'ed300ae62fcb6c1e32bbbd134df8171175452d33820f5ec0842ad5a34ed9a0ae',
    '6ea19d1dd68b318c9ef3bdd97e0f38c34d29c0039144f91ef26bfcd4206c62a3',
    '395ae372e34f6dc5bcfdfbea7046555e6f5eccb77343042b79a5652bff1112b5',
    '176438fd1cee8506017b7e647c5988f2a0ac742182e228831d0d39acdd321ad7',
    '8c720699f3a0c1a42846606ffdf257d18f9d0d8c501ba9c6eeab3bdb7a2f9d85',
    'a8fc260a5b87a6d39480b5f90cf91156497c6c843871f007ad3c2752e7655d2b',
    'dd51a782269db2036794b05273e6a47c795022cd511ec72284c4f6cb331a6b59',
    '5f4918fd308c25f6e4275becf177496e4046fe591bd6ce58a816c318705a679f',
    '6a6e4bd6dfdeffa72ea0a2615095ece59a3e24ebc0540aa859a909487ce6b0ff',
    '64517101e45b8b9abd60301ea91765191a395abab3523fc4b734d65f0c08bbed',
  ],
  server: [
    'ac41e1e9bcf068a772b46f91201a53bc82c2f4ac08f53c747cdea06b863876ad',
    '7f244b325d11c6a62e42d614730af8a5e1dba4da93c690c64e44116a0cf97ea4',
    '118986c44fa03a332caf5cb6356849f232a52f71f90f423c1ea8abbf90b28fe9',
    '6ce5f9f465b7ce0ccdd6f4e9731289790f98a465e105a0e67459cb27ca536d6e',
    'bba3d5062b5da5b0f8dc31dce2f428be1ef33701abfeccc2ba5b87e4d5c5a4cd',
    'b0992455cc964e3e40c1d204f6658c9c75cf7215a33ba7df18676a9a58f8d068',
    '3273540a1a1f362bbd692b3e96bf88189b8922bea3fde3d18091179d3bd6c467',
    '230122d15554193e0d85c394138c5608e3f1904dafc0ec867407d6b4a70bd0a3',
    'a37535f926b56e04fd7717deaca13a80c12420295d12f9106c765102847d71b3',
    'a3c2e2f8ad6c9a081c17fe8b4bf9c2b2e44d4ce8aabb80837f71d6898ac61eb5',
    'c54e3cb16e5afd71d34e19e237b6025f3e78347f8ef6d08d05f28cc47718af18',
  ],
};

/** The released ones come first; migrations added later are pinned when they are released. */
const released = (hashes: string[], pinned: string[]) => hashes.slice(0, pinned.length);

test('released schema migrations keep their hashes, in SQLite’s and PostgreSQL’s spelling', () => {
  assert.deepEqual(released(MIGRATIONS.map(migrationHash), RELEASED.sqlite), RELEASED.sqlite);
  assert.deepEqual(
    released(
      MIGRATIONS.map((migration) => migrationHash(postgresMigration(migration))),
      RELEASED.postgres,
    ),
    RELEASED.postgres,
  );
});

test('released server migrations keep their hashes', () => {
  assert.deepEqual(
    released(SERVER_MIGRATIONS.map(migrationHash), RELEASED.server),
    RELEASED.server,
  );
});
