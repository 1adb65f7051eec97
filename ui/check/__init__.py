"""The "Check your BPE" page's parts (``pages/6_Check.py``): :mod:`.inputs` (text, settings, merges), :mod:`.run`
(the check as a killable job) and :mod:`.report` (its answer); ``playground.check`` holds what is not drawing."""
