/**
 * Sends many callers' items to the database as one statement: an item submitted while fewer than `maxInFlight`
 * batches are out goes at once (so a lone request waits for nothing); otherwise it waits for the next free slot and
 * goes with every item that queued meanwhile. Under load the batches grow by themselves, one statement and one
 * commit each, and a quiet instance pays one round trip per item as before.
 *
 * `run` answers one outcome per item, in order. A batch that fails (a lost connection, a timeout) fails each of its
 * items with that error: the caller cannot tell whether the statement committed, as with a statement of its own.
 */
export interface GroupCommitQueue<Item, Outcome> {
  submit(item: Item): Promise<Outcome>;
}

export interface GroupCommitQueueOptions<Item, Outcome> {
  /** Batches out at once; each holds one pooled connection while it runs. */
  maxInFlight: number;
  /** Items of one batch at most (bounds the statement's parameters and how long its row locks are held). */
  maxBatchSize: number;
  run(items: Item[]): Promise<Outcome[]>;
}

interface Waiting<Item, Outcome> {
  item: Item;
  resolve(outcome: Outcome): void;
  reject(error: unknown): void;
}

export function createGroupCommitQueue<Item, Outcome>(
  options: GroupCommitQueueOptions<Item, Outcome>,
): GroupCommitQueue<Item, Outcome> {
  let waiting: Waiting<Item, Outcome>[] = [];
  let inFlight = 0;

  const send = (batch: Waiting<Item, Outcome>[]) => {
    inFlight += 1;
    let outcomes: Promise<Outcome[]>;
    try {
      outcomes = options.run(batch.map((entry) => entry.item));
    } catch (error) {
      outcomes = Promise.reject(error);
    }
    outcomes
      .then((answers) => {
        if (answers.length !== batch.length)
          throw new Error(`a batch of ${batch.length} items answered ${answers.length} outcomes`);
        for (let index = 0; index < batch.length; index += 1) batch[index]!.resolve(answers[index]!);
      })
      .catch((error: unknown) => {
        for (const entry of batch) entry.reject(error);
      })
      .finally(() => {
        inFlight -= 1;
        sendWaiting();
      });
  };

  const sendWaiting = () => {
    while (inFlight < options.maxInFlight && waiting.length > 0) {
      if (waiting.length <= options.maxBatchSize) {
        const batch = waiting;
        waiting = [];
        send(batch);
      } else send(waiting.splice(0, options.maxBatchSize));
    }
  };

  return {
    submit(item) {
      return new Promise<Outcome>((resolve, reject) => {
        waiting.push({ item, resolve, reject });
        sendWaiting();
      });
    },
  };
}
