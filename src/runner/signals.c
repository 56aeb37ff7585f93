/* signals.c: SIGINT and SIGTERM stop a run at its next safe point. */
#include <signal.h>

#include "runner-int.h"

volatile int signals_interrupted;

static void
on_signal(int sig)
{
	(void)sig;
	signals_interrupted = 1;
}

void
signals_catch(void)
{
	struct sigaction sa = {0};

	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}
