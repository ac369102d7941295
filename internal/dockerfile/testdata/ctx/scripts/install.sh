#!/usr/bin/env bash
echo install
