/** Where the vid-b family keeps the seconds of one sample in the task's stored request (operations do not repeat it). */
export const nativeSecondsPerSampleKey = "seconds_per_sample";
