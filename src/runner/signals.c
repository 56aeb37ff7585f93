/* signals.c: SIGINT and SIGTERM stop a run at its next safe point. */
#include <signal.h>

#include "runner-int.h"

volatile int runner_interrupted;

static void
on_signal(int sig)
{
	(void)sig;
	runner_interrupted = 1;
}

void
runner_catch_signals(void)
{
	struct sigaction sa = {0};

	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}
