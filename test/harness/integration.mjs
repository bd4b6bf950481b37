export async function runIntegration(){ throw new Error("todo"); }
